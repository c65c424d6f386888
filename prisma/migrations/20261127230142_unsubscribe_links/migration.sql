-- DropIndex
DROP INDEX "NotificationSettings_unsubscribeToken_key";

-- AlterTable
ALTER TABLE "NotificationSettings" DROP COLUMN "unsubscribeToken";

-- CreateTable
CREATE TABLE "UnsubscribeLink" (
    "tokenHash" CHAR(64) NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UnsubscribeLink_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "UnsubscribeLink_userId_idx" ON "UnsubscribeLink"("userId");

-- AddForeignKey
ALTER TABLE "UnsubscribeLink" ADD CONSTRAINT "UnsubscribeLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
