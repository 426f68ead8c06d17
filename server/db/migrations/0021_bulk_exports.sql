CREATE TABLE "bulk_export_chunks" (
	"export_id" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "bulk_export_chunks_export_id_seq_pk" PRIMARY KEY("export_id","seq")
);
--> statement-breakpoint
CREATE TABLE "bulk_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"installation_id" text NOT NULL,
	"app_id" text NOT NULL,
	"resource" text NOT NULL,
	"updated_since" text,
	"api_version" text NOT NULL,
	"status" text DEFAULT 'RUNNING' NOT NULL,
	"row_count" integer,
	"size_bytes" bigint,
	"sha256" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- a review written before this release last changed when it was written
UPDATE "reviews" SET "updated_at" = "created_at";--> statement-breakpoint
ALTER TABLE "bulk_export_chunks" ADD CONSTRAINT "bulk_export_chunks_export_id_bulk_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."bulk_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_exports_one_running_idx" ON "bulk_exports" USING btree ("installation_id") WHERE status = 'RUNNING';--> statement-breakpoint
CREATE INDEX "bulk_exports_running_idx" ON "bulk_exports" USING btree ("claimed_at") WHERE status = 'RUNNING';--> statement-breakpoint
CREATE INDEX "bulk_exports_created_idx" ON "bulk_exports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_business_updated_idx" ON "orders" USING btree ("business_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_business_updated_idx" ON "products" USING btree ("business_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "reviews_business_updated_idx" ON "reviews" USING btree ("business_id","updated_at","id");--> statement-breakpoint
-- incremental sync (DESIGN §25): every change to a product, an order or a review moves its updated_at,
-- whoever makes it (the App API, the merchant, checkout's stock, payments, expiries, a direct SQL fix)
CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_touch_updated_at BEFORE UPDATE ON products FOR EACH ROW EXECUTE FUNCTION touch_updated_at();--> statement-breakpoint
CREATE TRIGGER orders_touch_updated_at BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION touch_updated_at();--> statement-breakpoint
CREATE TRIGGER reviews_touch_updated_at BEFORE UPDATE ON reviews FOR EACH ROW EXECUTE FUNCTION touch_updated_at();