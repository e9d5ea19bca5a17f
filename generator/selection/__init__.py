"""The site's advice as data: walking the selection tree (`tree`), checking its leaves against
the cost model (`leafcheck`), the recommendation for a set of answers (`advice`) and the
flowchart's layout (`flowchart`). Formatting for a terminal or a page is done above, in
generator/edge/ and generator/render/."""
