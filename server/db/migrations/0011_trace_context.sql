ALTER TABLE "outbox_events" ADD COLUMN "trace_parent" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "trace_parent" text;