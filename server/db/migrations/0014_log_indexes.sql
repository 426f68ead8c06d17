DROP INDEX "webhook_deliveries_app_created_idx";--> statement-breakpoint
DROP INDEX "hook_calls_app_created_idx";--> statement-breakpoint
DROP INDEX "hook_calls_app_point_created_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_app_status_idx" ON "webhook_deliveries" USING btree ("app_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_app_event_idx" ON "webhook_deliveries" USING btree ("app_id","event","created_at","id");--> statement-breakpoint
CREATE INDEX "hook_calls_app_success_idx" ON "hook_calls" USING btree ("app_id","success","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_app_created_idx" ON "webhook_deliveries" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "hook_calls_app_created_idx" ON "hook_calls" USING btree ("app_id","created_at","id");--> statement-breakpoint
CREATE INDEX "hook_calls_app_point_created_idx" ON "hook_calls" USING btree ("app_id","hook_point","created_at","id");