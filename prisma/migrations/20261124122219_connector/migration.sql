-- CreateTable
CREATE TABLE "OAuthRecord" (
    "kind" VARCHAR(40) NOT NULL,
    "id" VARCHAR(400) NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" VARCHAR(100),
    "uid" VARCHAR(100),
    "expiresAt" TIMESTAMPTZ(3),
    "consumedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthRecord_pkey" PRIMARY KEY ("kind","id")
);

-- CreateTable
CREATE TABLE "ConnectorConnection" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "grantId" VARCHAR(100) NOT NULL,
    "clientId" VARCHAR(400) NOT NULL,
    "clientName" VARCHAR(200) NOT NULL,
    "scope" VARCHAR(40) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ConnectorConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthKeys" (
    "id" INTEGER NOT NULL,
    "jwks" JSONB NOT NULL,
    "cookieKeys" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthKeys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuthRecord_grantId_idx" ON "OAuthRecord"("grantId");

-- CreateIndex
CREATE INDEX "OAuthRecord_uid_idx" ON "OAuthRecord"("uid");

-- CreateIndex
CREATE INDEX "OAuthRecord_expiresAt_idx" ON "OAuthRecord"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectorConnection_grantId_key" ON "ConnectorConnection"("grantId");

-- CreateIndex
CREATE INDEX "ConnectorConnection_userId_idx" ON "ConnectorConnection"("userId");

-- AddForeignKey
ALTER TABLE "ConnectorConnection" ADD CONSTRAINT "ConnectorConnection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
