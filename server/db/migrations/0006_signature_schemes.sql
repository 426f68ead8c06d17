ALTER TABLE "apps" ADD COLUMN "webhook_signature_scheme" text DEFAULT 'spec' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "signature_scheme" text DEFAULT 'spec' NOT NULL;