#!/usr/bin/env bash
# Checks the README's two-command promise on a fresh Debian 12: builds a minimal root with
# debootstrap (--variant=minbase bookworm), installs only git in it, clones this checkout's HEAD
# into it, mounts /proc, /sys, /dev (with ptys) and /run, then runs inside it, as root:
#   ./deploy/quickstart.sh      and      ./deploy/test.sh
# and, with --compat, tests/compat/run.sh --no-speed (the reference checks of .ci/run).
# Prints each command's exit status and the tail of its log; exits 1 if any failed.
#
# Slow (everything is installed and built from nothing: about an hour on 2 cores), so it is not part
# of .ci/run. Run it whenever deploy/install-deps.sh or an external command of the tests changes,
# and before resolving an issue that adds a dependency (docs/contributing.md).
#
#   deploy/fresh_check.sh [--compat] [--keep] [ROOT]    ROOT defaults to /var/tmp/aiperf-fresh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
compat=0 keep=0 root=/var/tmp/aiperf-fresh
for arg in "$@"; do
  case "$arg" in
    --compat) compat=1 ;;
    --keep) keep=1 ;;
    -*) echo "usage: deploy/fresh_check.sh [--compat] [--keep] [ROOT]" >&2; exit 2 ;;
    *) root="$arg" ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "fresh_check: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

command -v debootstrap >/dev/null || { apt-get update -qq; apt-get install -y -qq debootstrap >/dev/null; }

mounts=("" proc sys dev dev/pts run)
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "$root/${mounts[i]}" && umount -l "$root/${mounts[i]}"
  done
  [ "$keep" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT

rm -rf "$root"
echo "fresh_check: debootstrap minbase bookworm into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log"; exit 1; }
mount --bind "$root" "$root"  # "/" is a mount point inside, as on a machine (ip netns needs it)
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mountpoint -q "$root/dev/pts" || mount -t devpts devpts "$root/dev/pts"
mount -t tmpfs tmpfs "$root/run"
# The host's network settings, as a machine on this network would have them: its resolver, and
# the extra CA certificates and pip configuration an intercepting proxy may need.
cp /etc/resolv.conf "$root/etc/resolv.conf"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
extra_cas=(/usr/local/share/ca-certificates/*.crt)

in_root() { chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git ca-certificates >/dev/null"
if [ -e "${extra_cas[0]}" ]; then
  cp "${extra_cas[@]}" "$root/usr/local/share/ca-certificates/"
  in_root "update-ca-certificates >/dev/null 2>&1"
fi
git clone -q --no-local "$repo" "$root/root/aiperf"
echo "fresh_check: cloned $(git -C "$repo" rev-parse --short HEAD) into the root"

steps=("./deploy/quickstart.sh" "./deploy/test.sh")
[ "$compat" = 1 ] && steps+=("tests/compat/run.sh --no-speed")
failed=0
for step in "${steps[@]}"; do
  log="$root.$(echo "$step" | tr -c 'a-z0-9' '_').log"
  start=$(date +%s)
  set +e
  in_root "cd /root/aiperf && $step" >"$log" 2>&1
  rc=$?
  set -e
  echo "fresh_check: '$step' exit $rc after $(($(date +%s) - start)) s (log: $log)"
  tail -15 "$log" | sed 's/^/    /'
  [ "$rc" -eq 0 ] || failed=1
done
[ "$failed" -eq 0 ] && echo "fresh_check: PASS" || echo "fresh_check: FAIL"
exit "$failed"
