CREATE TABLE "app_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"author_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reply_body" text,
	"reply_created_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"hidden_by" text,
	CONSTRAINT "app_reviews_rating_check" CHECK ("app_reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_reviews_app_business_idx" ON "app_reviews" USING btree ("app_id","business_id");--> statement-breakpoint
CREATE INDEX "app_reviews_app_created_idx" ON "app_reviews" USING btree ("app_id","created_at");