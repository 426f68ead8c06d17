CREATE TABLE "promo_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"min_subtotal" integer,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_kind_check" CHECK (("promo_codes"."percent_off" is null) <> ("promo_codes"."amount_off" is null)),
	CONSTRAINT "promo_codes_percent_check" CHECK ("promo_codes"."percent_off" is null or "promo_codes"."percent_off" between 1 and 100),
	CONSTRAINT "promo_codes_amount_check" CHECK ("promo_codes"."amount_off" is null or "promo_codes"."amount_off" > 0),
	CONSTRAINT "promo_codes_min_subtotal_check" CHECK ("promo_codes"."min_subtotal" is null or "promo_codes"."min_subtotal" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_business_code_idx" ON "promo_codes" USING btree ("business_id","code");--> statement-breakpoint
CREATE INDEX "promo_codes_business_created_idx" ON "promo_codes" USING btree ("business_id","created_at","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_discount_check" CHECK ("orders"."promo_discount" >= 0 and "orders"."promo_discount" <= "orders"."discount");