CREATE TABLE "hook_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"installation_id" text NOT NULL,
	"business_id" text NOT NULL,
	"hook_point" text NOT NULL,
	"url" text NOT NULL,
	"success" boolean NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hook_calls_app_created_idx" ON "hook_calls" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "hook_calls_created_idx" ON "hook_calls" USING btree ("created_at");