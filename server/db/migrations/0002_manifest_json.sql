ALTER TABLE "apps" ALTER COLUMN "manifest" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "apps" ALTER COLUMN "manifest" SET DEFAULT '{}'::json;