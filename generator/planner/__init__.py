"""The planner: for a reader's model, GPU count, market and goal, every buyable node and network of
the knowledge base with the layout the cost model finds fastest at that point, ranked."""
