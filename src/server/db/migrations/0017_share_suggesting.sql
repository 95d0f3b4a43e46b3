-- A third share level between viewing and editing: visitors with the link may propose changes as tracked
-- suggestions (the collaboration socket refuses their plain edits). Editing, when also on, wins.
ALTER TABLE documents ADD COLUMN share_allow_suggesting boolean NOT NULL DEFAULT false;
