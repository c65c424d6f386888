-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "boardId" INTEGER,
ADD COLUMN     "userId" INTEGER,
ALTER COLUMN "workspaceId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "boardId" INTEGER,
ALTER COLUMN "workspaceId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "WebhookEndpoint_boardId_userId_idx" ON "WebhookEndpoint"("boardId", "userId");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_userId_idx" ON "WebhookEndpoint"("userId");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "Board"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One owner, not two (by hand: Prisma's schema has no CHECK constraints): a workspace endpoint
-- receives its workspace's ticket events; a board webhook is its creator's and receives the
-- board's activity.
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_one_owner" CHECK (
    ("workspaceId" IS NOT NULL AND "boardId" IS NULL AND "userId" IS NULL)
    OR ("workspaceId" IS NULL AND "boardId" IS NOT NULL AND "userId" IS NOT NULL)
);

-- An event is a workspace's or a board's.
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_one_owner" CHECK (("workspaceId" IS NULL) <> ("boardId" IS NULL));
