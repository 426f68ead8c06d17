CREATE TABLE "list_counts" (
	"business_id" text NOT NULL,
	"list" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_counts_business_id_list_key_pk" PRIMARY KEY("business_id","list","key")
);
--> statement-breakpoint
CREATE TABLE "order_days" (
	"business_id" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"orders" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "order_days_business_id_day_status_pk" PRIMARY KEY("business_id","day","status")
);
--> statement-breakpoint
CREATE TABLE "product_days" (
	"business_id" text NOT NULL,
	"day" date NOT NULL,
	"product_id" text NOT NULL,
	"name" text NOT NULL,
	"quantity" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "product_days_business_id_day_product_id_pk" PRIMARY KEY("business_id","day","product_id")
);
--> statement-breakpoint
CREATE TABLE "review_counts" (
	"business_id" text NOT NULL,
	"product_id" text NOT NULL,
	"rating" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "review_counts_business_id_product_id_rating_pk" PRIMARY KEY("business_id","product_id","rating")
);
--> statement-breakpoint
DROP INDEX "orders_business_created_idx";--> statement-breakpoint
DROP INDEX "orders_business_status_idx";--> statement-breakpoint
DROP INDEX "products_business_created_idx";--> statement-breakpoint
DROP INDEX "products_business_category_idx";--> statement-breakpoint
DROP INDEX "reviews_business_created_idx";--> statement-breakpoint
DROP INDEX "reviews_business_product_idx";--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_days" ADD CONSTRAINT "order_days_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_days" ADD CONSTRAINT "product_days_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_counts" ADD CONSTRAINT "review_counts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_business_created_idx" ON "orders" USING btree ("business_id","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "orders_business_status_idx" ON "orders" USING btree ("business_id","status","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "products_business_created_idx" ON "products" USING btree ("business_id","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "products_business_category_idx" ON "products" USING btree ("business_id","category","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "reviews_business_created_idx" ON "reviews" USING btree ("business_id","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "reviews_business_product_idx" ON "reviews" USING btree ("business_id","product_id","created_at" DESC NULLS FIRST,"id");