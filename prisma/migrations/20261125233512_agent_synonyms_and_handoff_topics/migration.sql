-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "handoffTopics" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "synonyms" JSONB NOT NULL DEFAULT '[]';
