-- A chat turn's first statements as one call (bench/README.md, P4): a send ran the conversation's
-- lock, the read of its messages and the insert of the user message as three round trips, each
-- built by Drizzle. take_turn takes the conversation's row lock (marking it active at p_now), adds
-- the user message when p_content is given (nothing when p_client_message_id is already in the
-- conversation), then reads the messages: a statement of its own, so it reads as of after the lock
-- and sees a turn it waited for. It returns null when the conversation is not the customer's, else
-- {conversation, messages, added}: the row, every message but its search vector in seq order, and
-- the added message's id or null. The caller decides refusals from what it returns; a refused
-- turn's transaction rolls the message back.
CREATE FUNCTION "chat"."take_turn"(p_conversation uuid, p_owner uuid, p_customer uuid, p_now timestamptz,
  p_content text, p_client_message_id text, p_reply_id uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  conversation jsonb;
  added uuid;
  history jsonb;
BEGIN
  UPDATE "chat"."conversations" AS c SET "updated_at" = p_now
    WHERE c."id" = p_conversation AND c."owner_id" = p_owner AND c."customer_id" = p_customer
    RETURNING to_jsonb(c) INTO conversation;
  IF conversation IS NULL THEN
    RETURN NULL;
  END IF;
  IF p_content IS NOT NULL THEN
    INSERT INTO "chat"."messages" ("conversation_id", "owner_id", "customer_id", "role", "content", "client_message_id", "reply_id", "reply_state")
      VALUES (p_conversation, p_owner, p_customer, 'user', p_content, p_client_message_id, p_reply_id, 'streaming')
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
