-- CreateIndex
CREATE INDEX "WebhookEvent_createdAt_id_idx" ON "WebhookEvent"("createdAt", "id");
