-- CreateTable
CREATE TABLE "UnsubscribeLink" (
    "tokenHash" CHAR(64) NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UnsubscribeLink_pkey" PRIMARY KEY ("tokenHash")
);

-- The links already mailed keep working: each person's one token becomes a link (stored as its SHA-256, as new ones are).
INSERT INTO "UnsubscribeLink" ("tokenHash", "userId")
SELECT encode(sha256(convert_to("unsubscribeToken", 'UTF8')), 'hex'), "userId"
FROM "NotificationSettings" WHERE "unsubscribeToken" IS NOT NULL;

-- DropIndex
DROP INDEX "NotificationSettings_unsubscribeToken_key";

-- AlterTable
ALTER TABLE "NotificationSettings" DROP COLUMN "unsubscribeToken";

-- CreateIndex
CREATE INDEX "UnsubscribeLink_userId_idx" ON "UnsubscribeLink"("userId");

-- AddForeignKey
ALTER TABLE "UnsubscribeLink" ADD CONSTRAINT "UnsubscribeLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
