DROP INDEX "outbox_business_event_idx";--> statement-breakpoint
CREATE INDEX "outbox_erasures_idx" ON "outbox_events" USING btree ("seq") WHERE dispatched_at is null and installation_id is not null;--> statement-breakpoint
ALTER TABLE "outbox_events" SET (fillfactor = 60);