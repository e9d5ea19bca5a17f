"""The site's advice as data: walking the selection tree (`tree`), the planner's answers at each
leaf's example (`answers`), the answer to a reader's question (`advice`) and the flowchart's
layout (`flowchart`). Formatting for a terminal or a page is done above, in generator/edge/ and
generator/render/."""
