-- AlterTable
ALTER TABLE "Board" ADD COLUMN     "color" VARCHAR(16) NOT NULL DEFAULT 'blue';

-- AlterTable
ALTER TABLE "Card" ADD COLUMN     "coverAttachmentId" INTEGER;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "avatarKey" VARCHAR(200),
ADD COLUMN     "avatarType" VARCHAR(127);

-- CreateIndex
CREATE UNIQUE INDEX "Card_coverAttachmentId_key" ON "Card"("coverAttachmentId");

-- CreateIndex
CREATE UNIQUE INDEX "User_avatarKey_key" ON "User"("avatarKey");

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_coverAttachmentId_fkey" FOREIGN KEY ("coverAttachmentId") REFERENCES "Attachment"("id") ON DELETE SET NULL ON UPDATE CASCADE;
