CREATE TABLE "app_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"installation_id" text NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"interval" text,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"usage_cap" bigint,
	"usage_terms" text,
	"test" boolean NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"return_url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"trial_ends_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"replaced_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_trial_usage" (
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"used_ms" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_trial_usage_app_id_business_id_pk" PRIMARY KEY("app_id","business_id")
);
--> statement-breakpoint
CREATE TABLE "app_usage_records" (
	"id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"business_id" text NOT NULL,
	"app_id" text NOT NULL,
	"description" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"test" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_accounts" (
	"business_id" text PRIMARY KEY NOT NULL,
	"cycle_start" timestamp with time zone NOT NULL,
	"next_invoice_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"position" integer NOT NULL,
	"business_id" text NOT NULL,
	"app_id" text NOT NULL,
	"app_name" text NOT NULL,
	"charge_id" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"period_end" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"total" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'ISSUED' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "pricing" jsonb DEFAULT '{"plans":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "approved_pricing" jsonb;--> statement-breakpoint
ALTER TABLE "app_usage_records" ADD CONSTRAINT "app_usage_records_charge_id_app_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."app_charges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_charges_installation_idx" ON "app_charges" USING btree ("installation_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "app_charges_business_status_idx" ON "app_charges" USING btree ("business_id","status");--> statement-breakpoint
CREATE INDEX "app_charges_app_idx" ON "app_charges" USING btree ("app_id","status");--> statement-breakpoint
CREATE INDEX "app_charges_pending_idx" ON "app_charges" USING btree ("expires_at") WHERE status = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "app_charges_one_active_idx" ON "app_charges" USING btree ("installation_id") WHERE status = 'ACTIVE' and kind = 'SUBSCRIPTION';--> statement-breakpoint
CREATE UNIQUE INDEX "app_usage_records_key_idx" ON "app_usage_records" USING btree ("charge_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "app_usage_records_charge_created_idx" ON "app_usage_records" USING btree ("charge_id","created_at");--> statement-breakpoint
CREATE INDEX "app_usage_records_business_created_idx" ON "app_usage_records" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_accounts_next_idx" ON "billing_accounts" USING btree ("next_invoice_at");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoice_lines_app_period_idx" ON "invoice_lines" USING btree ("app_id","period_end");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_business_period_idx" ON "invoices" USING btree ("business_id","period_start");--> statement-breakpoint
CREATE INDEX "invoices_business_created_idx" ON "invoices" USING btree ("business_id","period_end");