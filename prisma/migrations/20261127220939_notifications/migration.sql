-- CreateEnum
CREATE TYPE "NotificationKind" AS ENUM ('assigned', 'mentioned', 'due', 'watched');

-- CreateEnum
CREATE TYPE "NotificationMailState" AS ENUM ('pending', 'mailed', 'skipped');

-- AlterTable
ALTER TABLE "MailMessage" ADD COLUMN     "headers" JSONB;

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "key" VARCHAR(80) NOT NULL,
    "kind" "NotificationKind" NOT NULL,
    "boardId" INTEGER NOT NULL,
    "cardId" INTEGER,
    "actorName" TEXT,
    "text" VARCHAR(1000) NOT NULL,
    "readAt" TIMESTAMPTZ(3),
    "mail" "NotificationMailState" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationSettings" (
    "userId" INTEGER NOT NULL,
    "mailAssigned" BOOLEAN NOT NULL DEFAULT true,
    "mailMentioned" BOOLEAN NOT NULL DEFAULT true,
    "mailDue" BOOLEAN NOT NULL DEFAULT true,
    "mailWatched" BOOLEAN NOT NULL DEFAULT true,
    "unsubscribeToken" VARCHAR(64) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "NotificationSettings_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "CardWatch" (
    "cardId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardWatch_pkey" PRIMARY KEY ("cardId","userId")
);

-- CreateTable
CREATE TABLE "NotifiedActivity" (
    "activityId" INTEGER NOT NULL,

    CONSTRAINT "NotifiedActivity_pkey" PRIMARY KEY ("activityId")
);

-- CreateTable
CREATE TABLE "NotifierCursor" (
    "id" INTEGER NOT NULL,
    "activityId" INTEGER NOT NULL,

    CONSTRAINT "NotifierCursor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Notification_userId_id_idx" ON "Notification"("userId", "id");

-- CreateIndex
CREATE INDEX "Notification_mail_createdAt_idx" ON "Notification"("mail", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_userId_key_key" ON "Notification"("userId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationSettings_unsubscribeToken_key" ON "NotificationSettings"("unsubscribeToken");

-- CreateIndex
CREATE INDEX "CardWatch_userId_idx" ON "CardWatch"("userId");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationSettings" ADD CONSTRAINT "NotificationSettings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardWatch" ADD CONSTRAINT "CardWatch_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardWatch" ADD CONSTRAINT "CardWatch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The notifier starts at the newest activity: history from before notifications existed tells nobody.
INSERT INTO "NotifierCursor" ("id", "activityId") SELECT 1, COALESCE(max("id"), 0) FROM "Activity";
