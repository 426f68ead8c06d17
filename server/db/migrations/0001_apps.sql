CREATE TABLE "app_extensions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"definition" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"version" text NOT NULL,
	"kind" text NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"approved_scopes" jsonb NOT NULL,
	"notes" text,
	"actor_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"approved_scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"redirect_url" text NOT NULL,
	"webhook_url" text,
	"webhook_events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"icon_url" text,
	"screenshots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" text DEFAULT '1.0.0' NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"is_published" boolean DEFAULT false NOT NULL,
	"review_notes" text,
	"manifest" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submitted_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apps_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "apps_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "installations" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"webhook_secret_encrypted" text NOT NULL,
	"is_test_install" boolean DEFAULT false NOT NULL,
	"needs_re_consent" boolean DEFAULT false NOT NULL,
	"granted_scopes" jsonb NOT NULL,
	"pending_scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"embed_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"installed_by" text NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uninstalled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "installations_access_token_hash_unique" UNIQUE("access_token_hash")
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ALTER COLUMN "last_order_number" SET DEFAULT 1000;--> statement-breakpoint
ALTER TABLE "app_extensions" ADD CONSTRAINT "app_extensions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installations" ADD CONSTRAINT "installations_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_extensions_key_idx" ON "app_extensions" USING btree ("app_id","kind","key");--> statement-breakpoint
CREATE INDEX "app_extensions_kind_key_idx" ON "app_extensions" USING btree ("kind","key") WHERE is_active;--> statement-breakpoint
CREATE INDEX "app_versions_app_created_idx" ON "app_versions" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "apps_developer_created_idx" ON "apps" USING btree ("developer_id","created_at");--> statement-breakpoint
CREATE INDEX "apps_status_submitted_idx" ON "apps" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "apps_published_category_idx" ON "apps" USING btree ("is_published","category","published_at");--> statement-breakpoint
CREATE INDEX "installations_app_idx" ON "installations" USING btree ("app_id","installed_at");--> statement-breakpoint
CREATE INDEX "installations_business_idx" ON "installations" USING btree ("business_id","installed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "installations_active_idx" ON "installations" USING btree ("app_id","business_id") WHERE uninstalled_at is null;--> statement-breakpoint
CREATE INDEX "media_app_idx" ON "media" USING btree ("app_id");