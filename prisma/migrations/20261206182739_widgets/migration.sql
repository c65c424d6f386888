-- CreateEnum
CREATE TYPE "WidgetSide" AS ENUM ('left', 'right');

-- CreateTable
CREATE TABLE "Widget" (
    "id" VARCHAR(40) NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "agentId" VARCHAR(40) NOT NULL,
    "origins" TEXT[],
    "color" VARCHAR(7) NOT NULL DEFAULT '#1f5fbf',
    "greeting" VARCHAR(500) NOT NULL DEFAULT 'Hi! Ask us anything.',
    "teamName" VARCHAR(100) NOT NULL DEFAULT 'Support',
    "launcherSide" "WidgetSide" NOT NULL DEFAULT 'right',
    "attachmentsAllowed" BOOLEAN NOT NULL DEFAULT true,
    "handoffText" VARCHAR(500) NOT NULL DEFAULT 'A person from our team will answer here and by e-mail.',
    "identitySecret" VARCHAR(100) NOT NULL,
    "verificationRequired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Widget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WidgetVisitor" (
    "id" SERIAL NOT NULL,
    "widgetId" VARCHAR(40) NOT NULL,
    "tokenHash" CHAR(64) NOT NULL,
    "userId" VARCHAR(200),
    "email" VARCHAR(254),
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WidgetVisitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WidgetConversation" (
    "conversationId" VARCHAR(40) NOT NULL,
    "widgetId" VARCHAR(40) NOT NULL,
    "visitorId" INTEGER NOT NULL,
    "userId" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WidgetConversation_pkey" PRIMARY KEY ("conversationId")
);

-- CreateIndex
CREATE INDEX "Widget_workspaceId_idx" ON "Widget"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "WidgetVisitor_tokenHash_key" ON "WidgetVisitor"("tokenHash");

-- CreateIndex
CREATE INDEX "WidgetVisitor_widgetId_userId_idx" ON "WidgetVisitor"("widgetId", "userId");

-- CreateIndex
CREATE INDEX "WidgetVisitor_expiresAt_idx" ON "WidgetVisitor"("expiresAt");

-- CreateIndex
CREATE INDEX "WidgetConversation_visitorId_createdAt_idx" ON "WidgetConversation"("visitorId", "createdAt");

-- CreateIndex
CREATE INDEX "WidgetConversation_widgetId_userId_idx" ON "WidgetConversation"("widgetId", "userId");

-- AddForeignKey
ALTER TABLE "Widget" ADD CONSTRAINT "Widget_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Widget" ADD CONSTRAINT "Widget_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WidgetVisitor" ADD CONSTRAINT "WidgetVisitor_widgetId_fkey" FOREIGN KEY ("widgetId") REFERENCES "Widget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WidgetConversation" ADD CONSTRAINT "WidgetConversation_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WidgetConversation" ADD CONSTRAINT "WidgetConversation_widgetId_fkey" FOREIGN KEY ("widgetId") REFERENCES "Widget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WidgetConversation" ADD CONSTRAINT "WidgetConversation_visitorId_fkey" FOREIGN KEY ("visitorId") REFERENCES "WidgetVisitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
