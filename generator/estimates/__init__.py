"""From the knowledge base to the cost model's inputs: the one reader of entity fields for the
model (`kb`), the estimate's JSON and text report (`report`). The cost model itself
(generator/costmodel/) imports nothing of the generator; this package is its adapter."""
