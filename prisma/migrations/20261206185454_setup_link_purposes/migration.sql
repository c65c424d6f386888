-- CreateEnum
CREATE TYPE "SetupLinkPurpose" AS ENUM ('setup', 'reset');

-- DropIndex
DROP INDEX "AccountSetupLink_userId_key";

-- AlterTable
ALTER TABLE "AccountSetupLink" ADD COLUMN     "purpose" "SetupLinkPurpose" NOT NULL DEFAULT 'setup';

-- CreateIndex
CREATE UNIQUE INDEX "AccountSetupLink_userId_purpose_key" ON "AccountSetupLink"("userId", "purpose");
