-- The published generation of the read-only domain stores (one row): replicas serve it.
CREATE TABLE store_generation (
    singleton    BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    name         TEXT NOT NULL,
    published_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
