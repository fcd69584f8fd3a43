-- The stable profile ranks a space's most-recalled memories. Keeping the space on the recall row
-- lets that ranking read a small index instead of scanning every memory of the space.
ALTER TABLE memory_recalls ADD COLUMN space_id uuid REFERENCES spaces (id) ON DELETE CASCADE;
UPDATE memory_recalls r SET space_id = m.space_id FROM memories m WHERE m.id = r.memory_id;
ALTER TABLE memory_recalls ALTER COLUMN space_id SET NOT NULL;
CREATE INDEX memory_recalls_space_rank_idx
    ON memory_recalls (space_id, recall_count DESC, last_recalled_at DESC);
