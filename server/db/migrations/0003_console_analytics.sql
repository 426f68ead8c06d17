CREATE TABLE "app_daily_counters" (
	"app_id" text NOT NULL,
	"day" date NOT NULL,
	"sandbox" boolean NOT NULL,
	"metric" text NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "app_daily_counters_app_id_day_sandbox_metric_pk" PRIMARY KEY("app_id","day","sandbox","metric")
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "next_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hook_calls" ADD COLUMN "request_body" text;--> statement-breakpoint
ALTER TABLE "hook_calls" ADD COLUMN "answer" text;--> statement-breakpoint
ALTER TABLE "hook_calls" ADD COLUMN "failure_policy" text;--> statement-breakpoint
CREATE INDEX "app_daily_counters_day_idx" ON "app_daily_counters" USING btree ("day");--> statement-breakpoint
CREATE INDEX "hook_calls_app_point_created_idx" ON "hook_calls" USING btree ("app_id","hook_point","created_at");--> statement-breakpoint
-- backfill the counters from what the logs still hold (installations are never pruned)
INSERT INTO "app_daily_counters" ("app_id", "day", "sandbox", "metric", "value")
SELECT app_id, day, sandbox, metric, sum(n) FROM (
  SELECT app_id, (installed_at at time zone 'UTC')::date AS day, is_test_install AS sandbox, 'installs' AS metric, 1 AS n FROM installations
  UNION ALL
  SELECT app_id, (uninstalled_at at time zone 'UTC')::date, is_test_install, 'uninstalls', 1 FROM installations WHERE uninstalled_at IS NOT NULL
  UNION ALL
  SELECT d.app_id, (d.completed_at at time zone 'UTC')::date, coalesce(i.is_test_install, false), CASE WHEN d.status = 'SUCCEEDED' THEN 'deliveries.succeeded' ELSE 'deliveries.failed' END, 1
    FROM webhook_deliveries d LEFT JOIN installations i ON i.id = d.installation_id WHERE d.completed_at IS NOT NULL AND d.event <> 'webhook.test'
  UNION ALL
  SELECT d.app_id, (a.created_at at time zone 'UTC')::date, coalesce(i.is_test_install, false), 'attempts', 1
    FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id LEFT JOIN installations i ON i.id = d.installation_id WHERE d.event <> 'webhook.test'
  UNION ALL
  SELECT d.app_id, (a.created_at at time zone 'UTC')::date, coalesce(i.is_test_install, false), 'attempts.duration_ms', a.duration_ms
    FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id LEFT JOIN installations i ON i.id = d.installation_id WHERE d.event <> 'webhook.test'
  UNION ALL
  SELECT h.app_id, (h.created_at at time zone 'UTC')::date, coalesce(i.is_test_install, false), 'hooks.' || h.hook_point || CASE WHEN h.success THEN '.succeeded' ELSE '.failed' END, 1
    FROM hook_calls h LEFT JOIN installations i ON i.id = h.installation_id
) AS c GROUP BY app_id, day, sandbox, metric;
