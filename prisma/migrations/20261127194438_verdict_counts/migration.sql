-- AlterEnum
ALTER TYPE "TurnVerdict" ADD VALUE 'should_answer';

-- AlterTable
ALTER TABLE "TurnFeedback" ADD COLUMN     "counts" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "why" VARCHAR(500);
