ALTER TABLE "businesses" ALTER COLUMN "last_order_number" SET DEFAULT 1000;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_invoice_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_business_invoice_idx" ON "orders" USING btree ("business_id","payment_invoice_id") WHERE payment_invoice_id is not null;--> statement-breakpoint
CREATE INDEX "pages_business_created_idx" ON "pages" USING btree ("business_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_business_category_idx" ON "products" USING btree ("business_id","category");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_check" CHECK ("orders"."subtotal" >= 0 and "orders"."delivery_fee" >= 0 and "orders"."discount" >= 0 and "orders"."amount" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_check" CHECK ("products"."stock" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_threshold_check" CHECK ("products"."low_stock_threshold" >= 0);