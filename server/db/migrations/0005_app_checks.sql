CREATE TABLE "check_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"version" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"planned" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "check_scope_uses" (
	"installation_id" text NOT NULL,
	"scope" text NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "check_scope_uses_installation_id_scope_pk" PRIMARY KEY("installation_id","scope")
);
--> statement-breakpoint
CREATE INDEX "check_runs_app_started_idx" ON "check_runs" USING btree ("app_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "check_runs_one_running_idx" ON "check_runs" USING btree ("app_id") WHERE status = 'RUNNING';