-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "importedAt" TIMESTAMPTZ(3);
