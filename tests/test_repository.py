"""Edit links: which repository addresses become links, and in what order the settings count."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.repository import Repository, from_settings, web_url


@pytest.mark.parametrize(("remote", "expected"), [
    ("https://github.com/team/gpu-guide", "https://github.com/team/gpu-guide"),
    ("https://github.com/team/gpu-guide.git", "https://github.com/team/gpu-guide"),
    ("https://github.com/team/gpu-guide/", "https://github.com/team/gpu-guide"),
    ("http://gitea.example.org:3000/team/gpu-guide", "https://gitea.example.org:3000/team/gpu-guide"),
    ("git@github.com:team/gpu-guide.git", "https://github.com/team/gpu-guide"),
    ("ssh://git@github.com/team/gpu-guide.git", "https://github.com/team/gpu-guide"),
    ("https://gitlab.com/group/sub/gpu-guide.git", "https://gitlab.com/group/sub/gpu-guide"),
])
def test_remote_forms_become_https_addresses(remote: str, expected: str) -> None:
    """The forms a git remote takes give the repository's web address."""
    assert web_url(remote) == expected


@pytest.mark.parametrize("remote", [
    "javascript:alert(1)//team/x", "data:text/html,x/y", "/srv/git/gpu-guide.git", "../gpu-guide",
    "file:///srv/git/gpu-guide", "https://github.com/team", "https://github.com/team/x?tab=1",
    'https://github.com/team/x" onclick="alert(1)', "https://github.com/team/x y", "https://github.com/../x/y",
    "https://user:secret@github.com/team/x", "", "https://github.com/team/<x>",
])
def test_anything_else_gives_no_link(remote: str) -> None:
    """Local paths, other schemes, credentials and odd characters never become a link."""
    assert web_url(remote) is None


@given(st.text(max_size=80))
def test_an_address_is_always_a_plain_https_link(remote: str) -> None:
    """Whatever the remote says, the result is None or an https URL with nothing that could
    leave an HTML attribute or start markup."""
    url = web_url(remote)
    if url is not None:
        assert url.startswith("https://")
        assert not set(url) & set(" \t\r\n\"'<>`\\{}|^[]"), url


def test_settings_order() -> None:
    """GUIDE_REPO_URL wins over GitHub Actions' variables, which win over the origin remote."""
    actions = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "ci/guide"}
    origin = "git@github.com:me/guide.git"
    assert from_settings({"GUIDE_REPO_URL": "https://example.org/a/b", **actions}, origin) == \
        Repository("https://example.org/a/b")
    assert from_settings(actions, origin) == Repository("https://github.com/ci/guide")
    assert from_settings({}, origin) == Repository("https://github.com/me/guide")
    assert from_settings({}, None) is None
    assert from_settings({"GUIDE_REPO_URL": "javascript:x"}, None) is None


def test_branch_and_paths_are_quoted() -> None:
    """The branch comes from GUIDE_REPO_BRANCH when it is a plausible branch name, else main."""
    assert from_settings({"GUIDE_REPO_BRANCH": "release/1.0"}, "https://h.org/a/b") == \
        Repository("https://h.org/a/b", "release/1.0")
    assert from_settings({"GUIDE_REPO_BRANCH": "x\" onload=1"}, "https://h.org/a/b") == Repository("https://h.org/a/b")
    repo = Repository("https://h.org/a/b")
    assert repo.edit("specs/gpus/x.yaml") == "https://h.org/a/b/edit/main/specs/gpus/x.yaml"
    assert repo.folder("specs/gpus") == "https://h.org/a/b/tree/main/specs/gpus"
