-- take_turn takes the conversation's row lock with SELECT … FOR UPDATE instead of an UPDATE of its
-- updated_at (bench/README.md, P4, session 65). The lock is the same one, and a turn that waited for
-- it still reads the messages as of after it; but each send no longer writes a new version of the
-- conversation's row, which the stored reply writes again anyway: the transaction took 0.2 ms less
-- on both databases. A conversation's updated_at now moves when something in it is stored (the
-- reply, an edit, a rename), not when a turn starts. p_now, the server's clock, is now the user
-- message's updated_at: the mark of its streaming reply, which the server refreshes and judges
-- stale by that same clock (it was the database's clock at the insert). Otherwise as in 0048.
CREATE OR REPLACE FUNCTION "chat"."take_turn"(p_conversation uuid, p_owner uuid, p_customer uuid, p_now timestamptz,
  p_content text, p_client_message_id text, p_reply_id uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  conversation jsonb;
  added uuid;
  history jsonb;
BEGIN
  SELECT to_jsonb(c) INTO conversation FROM "chat"."conversations" AS c
    WHERE c."id" = p_conversation AND c."owner_id" = p_owner AND c."customer_id" = p_customer
    FOR UPDATE;
  IF conversation IS NULL THEN
    RETURN NULL;
  END IF;
  IF p_content IS NOT NULL THEN
    INSERT INTO "chat"."messages" ("conversation_id", "owner_id", "customer_id", "role", "content", "client_message_id", "reply_id", "reply_state", "updated_at")
      VALUES (p_conversation, p_owner, p_customer, 'user', p_content, p_client_message_id, p_reply_id, 'streaming', p_now)
      ON CONFLICT ("conversation_id", "client_message_id") WHERE "client_message_id" IS NOT NULL DO NOTHING
      RETURNING "id" INTO added;
  END IF;
  SELECT coalesce(jsonb_agg(to_jsonb(m) ORDER BY m."seq"), '[]') INTO history FROM (
    SELECT "id", "seq", "conversation_id", "owner_id", "customer_id", "role", "content", "status", "error", "tool_name",
      "tool_call_id", "tool_arguments", "client_message_id", "reply_id", "reply_state", "created_at", "updated_at"
    FROM "chat"."messages" WHERE "conversation_id" = p_conversation AND "owner_id" = p_owner
  ) AS m;
  RETURN jsonb_build_object('conversation', conversation, 'messages', history, 'added', added);
END
$$;
