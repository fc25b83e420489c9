#!/usr/bin/env bash
# The container image's files, one folder per layer, each mirroring the image's root:
#
#   deploy/image/assemble.sh SUITE OUT
#
# SUITE is the folder deploy/build-release.sh printed (bin/, lib/). deploy/Dockerfile copies each
# of OUT's folders as a layer of its own, the one that changes least first; deploy/container-test.sh
# imports them together and prints what each weighs.
#
#   OUT/system  the C libraries the executables link (glibc, libstdc++, SQLite, zlib) at their
#               Debian paths, /bin/sh for compose's health checks, CA certificates, the binario user
#   OUT/swift   the Swift runtime and Foundation (ICU's data among it), in /usr/local/lib
#   OUT/data    the time zone database, the web app and its libraries from Debian (libjs-leaflet,
#               libjs-chart.js, node-qrcode-generator), the demo data the services load at their
#               first start, the load generator's mix
#   OUT/suite   libBinarioSuite.so in /usr/local/lib, the executables in /usr/local/bin
#
# Swagger UI (the gateway's /docs) is not here: the Dockerfile's docs stage and the container test
# each add it to /usr/share/binario/swagger-ui. Everything is stripped of symbols and debug
# information. Reads the libraries from this machine (the Dockerfile's build stage: Debian 12).
set -euo pipefail
cd "$(dirname "$0")/../.."
suite=$1 out=$2
rm -rf "$out"
mkdir -p "$out/system" "$out/swift/usr/local/lib" "$out/data" "$out/suite/usr/local/lib" "$out/suite/usr/local/bin"

install -s -m 0755 "$suite"/bin/* "$out/suite/usr/local/bin/"
install -s -m 0755 "$suite"/lib/* "$out/suite/usr/local/lib/"

# Every shared library the executables, the suite's library and the shell link: the Swift
# toolchain's beside the suite's library (it finds them through its $ORIGIN run path), the
# system's at the same paths.
mkdir -p "$out/system/bin"
cp /bin/dash "$out/system/bin/sh"
for file in "$out/suite/usr/local/bin/"* "$out/suite/usr/local/lib/"* "$out/system/bin/sh"; do
  ldd "$file" | grep -o '/[^ ]*' || true
done | sort -u | while read -r library; do
  case "$library" in
    "$out"/*) ;;  # the suite's own library
    */lib/swift/linux/*) install -s -m 0644 "$library" "$out/swift/usr/local/lib/" ;;
    *)
      mkdir -p "$out/system$(dirname "$library")"
      cp -L "$library" "$out/system$library"
      ;;
  esac
done

mkdir -p "$out/system/etc/ssl/certs"
cp -L /etc/ssl/certs/ca-certificates.crt "$out/system/etc/ssl/certs/"
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nbinario:x:10001:10001::/var/lib/binario:/usr/sbin/nologin\n' >"$out/system/etc/passwd"
printf 'root:x:0:\nbinario:x:10001:\n' >"$out/system/etc/group"
install -d -m 1777 "$out/system/tmp"

share=$out/data/usr/share
mkdir -p "$share/binario/demo-network" "$share/javascript"
# The time zone database (Debian's tzdata): Foundation formats a time in a zone other than UTC
# (Europe/Rome, a feed's agency_timezone) from its files, and traps without them.
cp -a /usr/share/zoneinfo "$share/zoneinfo"
# The web app the gateway serves at / (--web-folder), and the libraries it serves from
# /usr/share/javascript (its default --web-libraries), symlinks resolved.
cp -r clients/web "$share/binario/web"
for library in leaflet chart.js qrcode-generator; do
  cp -rL "/usr/share/javascript/$library" "$share/javascript/"
done
# Scheduling's demo network (a GTFS feed), loaded at its first start; ticketing's fare table,
# loaded when it differs from the one in force; geo-offers' demo shops, deals, places and route
# offers; dispatch's taxi zones (Milan in nine) and the demo area's street addresses; the load
# generator's mix (binario-loadgen; compose's loadgenerator, off by default).
cp Services/Scheduling/DemoNetwork/*.txt "$share/binario/demo-network/"
cp Services/Ticketing/DemoFares/fares.json "$share/binario/demo-fares.json"
cp Services/GeoOffers/DemoData/offers.json "$share/binario/demo-offers.json"
cp Services/Dispatch/DemoData/zones.json "$share/binario/taxi-zones.json"
cp Services/Dispatch/DemoData/addresses.json "$share/binario/taxi-addresses.json"
cp Benchmarks/LoadGenerator/mix.json "$share/binario/loadgenerator-mix.json"
