ALTER TABLE "installations" ADD COLUMN "api_version" text DEFAULT '2026-11' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "api_version" text;