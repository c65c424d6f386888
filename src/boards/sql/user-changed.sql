-- A user's name, address or picture is on every board they belong to (the board snapshot's
-- members), so a change to them is announced to every server process in the change's own
-- transaction, as a board change's activities are (change-board.ts, tb_record_activities):
-- NOTIFY is delivered at commit, and one that cannot be queued fails the commit. A change is
-- never committed unannounced, whichever code path wrote it (accounts/, the admin CLI, an
-- avatar upload, SQL typed by hand), so no process serves the old name from its board cache
-- while the write stands. This process drops its own entries at once (change-board.ts
-- afterUserChange, which accounts/ calls as userChanged); the notification tells the others.
--
-- The channel and the message are event-bus.ts's (CHANNEL, a stale-data message {o, s}); a test
-- holds the channel name equal. 'db' is no process's origin, so every process hears it.
CREATE OR REPLACE FUNCTION tb_user_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tb_board_events', json_build_object('o', 'db', 's', json_build_object('userId', NEW.id))::text);
  RETURN NULL;
END $$;

-- Only the columns a board shows, and only when they really change (a status change, a password
-- or a sign-in touches no board).
CREATE OR REPLACE TRIGGER tb_user_changed
AFTER UPDATE OF name, email, "avatarKey" ON "User"
FOR EACH ROW
WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD."avatarKey" IS DISTINCT FROM NEW."avatarKey")
EXECUTE FUNCTION tb_user_changed();
