-- CreateTable
CREATE TABLE "TicketReplyLink" (
    "id" SERIAL NOT NULL,
    "tokenHash" VARCHAR(64) NOT NULL,
    "ticketId" INTEGER NOT NULL,
    "commentId" INTEGER,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TicketReplyLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TicketRating" (
    "ticketId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "score" SMALLINT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TicketRating_pkey" PRIMARY KEY ("ticketId")
);

-- CreateIndex
CREATE UNIQUE INDEX "TicketReplyLink_tokenHash_key" ON "TicketReplyLink"("tokenHash");

-- CreateIndex
CREATE INDEX "TicketReplyLink_ticketId_idx" ON "TicketReplyLink"("ticketId");

-- CreateIndex
CREATE INDEX "TicketRating_workspaceId_createdAt_idx" ON "TicketRating"("workspaceId", "createdAt");

-- AddForeignKey
ALTER TABLE "TicketReplyLink" ADD CONSTRAINT "TicketReplyLink_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TicketRating" ADD CONSTRAINT "TicketRating_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "TicketRating" ADD CONSTRAINT "TicketRating_score_check" CHECK (score BETWEEN 1 AND 5);
