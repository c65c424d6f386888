-- AlterTable
ALTER TABLE "Activity" ADD COLUMN     "actorClient" VARCHAR(200);

-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN     "tokenHash" CHAR(64);

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "lastSeenAt" TIMESTAMPTZ(3),
ADD COLUMN     "userAgent" VARCHAR(300);

-- CreateTable
CREATE TABLE "AccountSetupLink" (
    "tokenHash" CHAR(64) NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AccountSetupLink_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "AccountSetupLink_userId_key" ON "AccountSetupLink"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- AddForeignKey
ALTER TABLE "AccountSetupLink" ADD CONSTRAINT "AccountSetupLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
