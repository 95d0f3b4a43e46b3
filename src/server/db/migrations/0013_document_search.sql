-- Full-text search over documents. A trigger (not the application) keeps the index current, so every
-- write path updates it: the REST API, the live-collaboration store, share-link editors, imports and any
-- future one. The weighted vector holds the title (A) and the text of the rich-text tree (B), English
-- stemming; text_preview is the opening text for dashboard cards, search_text the text for snippets.

-- The readable text of a rich-text tree: each text block (paragraph, heading, code block) is its inline
-- text run together, blocks separated by a newline, in document order.
CREATE FUNCTION document_plain_text(content jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(block_text, E'\n' ORDER BY block_number), '')
  FROM (
    SELECT block_number, (
      SELECT string_agg(
        CASE WHEN inline ->> 'type' = 'hardBreak' THEN E'\n' ELSE coalesce(inline ->> 'text', '') END,
        '' ORDER BY inline_number)
      FROM jsonb_array_elements(
        CASE WHEN jsonb_typeof(block -> 'content') = 'array' THEN block -> 'content' ELSE '[]' END
      ) WITH ORDINALITY AS inlines(inline, inline_number)
    ) AS block_text
    FROM jsonb_path_query(
      content,
      'strict $.** ? (@.type == "paragraph" || @.type == "heading" || @.type == "codeBlock")'
    ) WITH ORDINALITY AS blocks(block, block_number)
  ) AS texts
  WHERE block_text IS NOT NULL
$$;

ALTER TABLE documents ADD COLUMN search_vector tsvector;
ALTER TABLE documents ADD COLUMN text_preview text NOT NULL DEFAULT '';
-- The plain text itself, for search snippets: extracting it from the jsonb again costs about a
-- millisecond per long document and search; stored (compressed out of line) it costs a few kilobytes.
ALTER TABLE documents ADD COLUMN search_text text NOT NULL DEFAULT '';

CREATE FUNCTION documents_search_refresh() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  body text;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.title IS NOT DISTINCT FROM OLD.title
     AND NEW.content IS NOT DISTINCT FROM OLD.content AND NEW.search_vector IS NOT NULL THEN
    RETURN NEW;
  END IF;
  body := document_plain_text(NEW.content);
  NEW.search_text := body;
  NEW.text_preview := left(regexp_replace(body, '\s+', ' ', 'g'), 240);
  BEGIN
    NEW.search_vector := setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A')
      || setweight(to_tsvector('english', body), 'B');
  EXCEPTION WHEN program_limit_exceeded THEN
    -- A tsvector holds at most 1 MB; a body with that many distinct words is indexed by its opening part
    -- rather than refusing the write.
    NEW.search_vector := setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A')
      || setweight(to_tsvector('english', left(body, 200000)), 'B');
  END;
  RETURN NEW;
END
$$;

CREATE TRIGGER documents_search_refresh
  BEFORE INSERT OR UPDATE ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_search_refresh();

-- Index what is already there (the trigger computes it; touching the title is enough).
UPDATE documents SET title = title;

-- fastupdate off: without autovacuum (the embedded database has none) the pending list of a fast-update
-- GIN index grows to 4 MB and every search scans it; a write instead pays the index update itself.
CREATE INDEX documents_search_idx ON documents USING gin (search_vector) WITH (fastupdate = off);
-- Title matches rank first; this index finds them without reading any document's body vector.
CREATE INDEX documents_title_search_idx ON documents USING gin (to_tsvector('english', title))
  WITH (fastupdate = off);
