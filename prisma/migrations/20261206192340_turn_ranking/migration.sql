-- AlterTable
ALTER TABLE "ConversationTurn" ADD COLUMN     "ranking" JSONB;
