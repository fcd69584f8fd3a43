-- When a queued document's upload URL expires, so a file that never arrived is reported as such.
--
-- createUpload makes the document row (status queued) and a signed URL valid for
-- upload_url_ttl_seconds. A client that never PUTs the bytes (a crash, a lost network, a
-- user who closed the window) used to leave the row "queued" for ever, indistinguishable from
-- one waiting for the extraction worker. With the URL's expiry on the row, listDocuments and
-- getDocument say plainly that no file arrived and what to do (services/views.document). Rows
-- created before this migration keep NULL and say nothing new.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS upload_expires_at timestamptz;
