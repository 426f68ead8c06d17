DROP INDEX "outbox_business_event_idx";--> statement-breakpoint
ALTER TABLE "outbox_events" SET (fillfactor = 60);