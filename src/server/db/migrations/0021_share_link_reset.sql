-- Share links that can be replaced: a key in the link's address, null for a link never reset (its address is
-- the document's alone). Resetting the link sets a new key, so the old address and every token issued through
-- it stop working.
ALTER TABLE documents ADD COLUMN share_link_key text;
-- Whether view-only visitors see pending suggestions (off: they read the text as it stands without them).
ALTER TABLE documents ADD COLUMN share_show_suggestions boolean NOT NULL DEFAULT false;
