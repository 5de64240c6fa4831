#!/bin/sh
# Copies the public files of the real-code trial (Trial/trial.tsv: app, repository, commit, path, folder, cut)
# into Trial/Apps/<app>/<folder>/ at the commit the table names, with the row's cut (a sed script,
# docs/real-code-trial.md says why) applied, from a local mirror when there is one
# ($OFFSTAGE_MIRRORS/<owner>+<name>/repo, a bare clone) or else from a partial clone of GitHub in $TMPDIR.
# The files are public code: .gitignore keeps them out of the repository. Usage: Trial/fetch-trial.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mirrors=${OFFSTAGE_MIRRORS:-/work/.mirror}
cache=${TMPDIR:-/tmp}/offstage-trial-clones
grep -v '^#' "$here/trial.tsv" | while IFS='	' read -r app repository commit path into cut; do
    [ -n "$app" ] || continue
    git_dir="$mirrors/$(echo "$repository" | tr / +)/repo"
    if [ ! -d "$git_dir" ]; then
        git_dir="$cache/$(echo "$repository" | tr / +).git"
        [ -d "$git_dir" ] || git clone --quiet --bare --filter=blob:none "https://github.com/$repository" "$git_dir"
        git -C "$git_dir" cat-file -e "$commit" 2>/dev/null || git -C "$git_dir" fetch --quiet origin "$commit"
    fi
    target="Apps/$app/$into/$(basename "$path")"
    mkdir -p "$(dirname "$here/$target")"
    git -C "$git_dir" show "$commit:$path" > "$here/$target"
    [ "$cut" = "-" ] || sed -i "$cut" "$here/$target"
    echo "$repository@$commit:$path -> Trial/$target${cut#-}" | sed 's|/\./|/|' 
done
