CREATE TABLE "app_review_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"author_id" text NOT NULL,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_versions" ADD COLUMN "snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "changes_requested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "app_review_replies" ADD CONSTRAINT "app_review_replies_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_review_replies_app_created_idx" ON "app_review_replies" USING btree ("app_id","created_at");--> statement-breakpoint
UPDATE "apps" SET "changes_requested" = true WHERE "status" = 'DRAFT' AND (SELECT "kind" FROM "app_versions" v WHERE v."app_id" = "apps"."id" AND v."kind" IN ('APPROVED', 'REJECTED', 'SUBMITTED') ORDER BY v."created_at" DESC LIMIT 1) = 'REJECTED';
