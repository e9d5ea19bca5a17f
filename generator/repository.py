"""Where the project's files can be edited on the web: the repository a page's "edit" button
and each entity's spec-file link point to.

Pure: the edges (the CLI and the MkDocs hook) find the repository's address (an environment
variable, GitHub Actions' variables, or the checkout's `origin` remote) and hand it here. Only
https addresses of a host and a path are accepted, so whatever a remote says can only ever
become a plain link: never a `javascript:` URL, never an attribute break-out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

# owner/name style paths, as GitHub, GitLab and Gitea use them.
_PATH = re.compile(r"^/[A-Za-z0-9_.~-]+(?:/[A-Za-z0-9_.~-]+)+$")
_HOST = re.compile(r"^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$")
_SCP_LIKE = re.compile(r"^(?:[A-Za-z0-9_.-]+@)?(?P<host>[A-Za-z0-9.-]+):(?P<path>[A-Za-z0-9_.~/-]+)$")
_BRANCH = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]{0,99}$")


@dataclass(frozen=True)
class Repository:
    url: str  # https://host/owner/name, no trailing slash
    branch: str = "main"

    def edit(self, path: str) -> str:
        """The web editor of one file, e.g. `specs/gpus/x.yaml` or `docs/index.md`."""
        return f"{self.url}/edit/{quote(self.branch)}/{quote(path)}"

    def folder(self, path: str) -> str:
        """A folder's listing, e.g. `specs/gpus`: where a generated page's data is edited."""
        return f"{self.url}/tree/{quote(self.branch)}/{quote(path)}"


def web_url(remote: str) -> str | None:
    """The https address of a repository, from the forms a git remote or a setting takes
    (`https://host/o/r(.git)`, `ssh://git@host/o/r.git`, `git@host:o/r.git`); None for
    anything else (a local path, another scheme, odd characters)."""
    remote = remote.strip()
    scp = _SCP_LIKE.match(remote)
    if scp is not None and "//" not in remote:
        host, path = scp["host"], "/" + scp["path"]
    else:
        try:
            parts = urlsplit(remote)
        except ValueError:
            return None
        if parts.scheme not in ("https", "http", "ssh", "git") or parts.query or parts.fragment:
            return None
        user, _, host = parts.netloc.rpartition("@")
        if ":" in user:  # a password: never copied into a page
            return None
        if parts.scheme in ("ssh", "git"):  # that port is git's, not the web server's
            host = host.partition(":")[0]
        path = parts.path
    path = path.removesuffix("/").removesuffix(".git")
    if not _HOST.match(host) or not _PATH.match(path) or ".." in path:
        return None
    return f"https://{host.lower()}{path}"


def from_settings(environ: Mapping[str, str], origin: str | None) -> Repository | None:
    """The repository from, in order: GUIDE_REPO_URL (and GUIDE_REPO_BRANCH), GitHub Actions'
    GITHUB_SERVER_URL + GITHUB_REPOSITORY, then the checkout's `origin` remote. No address, no
    links: a page never points at a guessed repository."""
    branch = environ.get("GUIDE_REPO_BRANCH", "main")
    if not _BRANCH.match(branch) or ".." in branch:
        branch = "main"
    for candidate in (environ.get("GUIDE_REPO_URL"),
                      _actions_url(environ),
                      origin):
        url = web_url(candidate) if candidate else None
        if url is not None:
            return Repository(url, branch)
    return None


def _actions_url(environ: Mapping[str, str]) -> str | None:
    server, name = environ.get("GITHUB_SERVER_URL"), environ.get("GITHUB_REPOSITORY")
    return f"{server.rstrip('/')}/{name}" if server and name else None
