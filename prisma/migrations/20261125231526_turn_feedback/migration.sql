-- CreateEnum
CREATE TYPE "TurnVerdict" AS ENUM ('right', 'wrong', 'needs_human');

-- AlterTable
ALTER TABLE "ConversationTurn" ADD COLUMN     "features" JSONB;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "decisionModel" JSONB;

-- CreateTable
CREATE TABLE "TurnFeedback" (
    "turnId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "verdict" "TurnVerdict" NOT NULL,
    "articleId" INTEGER,
    "userId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "TurnFeedback_pkey" PRIMARY KEY ("turnId")
);

-- CreateIndex
CREATE INDEX "TurnFeedback_workspaceId_idx" ON "TurnFeedback"("workspaceId");

-- CreateIndex
CREATE INDEX "TurnFeedback_articleId_idx" ON "TurnFeedback"("articleId");

-- AddForeignKey
ALTER TABLE "TurnFeedback" ADD CONSTRAINT "TurnFeedback_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "ConversationTurn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnFeedback" ADD CONSTRAINT "TurnFeedback_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnFeedback" ADD CONSTRAINT "TurnFeedback_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnFeedback" ADD CONSTRAINT "TurnFeedback_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
