cd /work/main
export LBMR_ENERGY=off
THREADS=2 LIMIT=1500 PEER_IT=40 ROUNDS=5 \
SLICES="64/sp,dp 320/sp;128/sp,dp;192/sp,dp;256/dp 384/sp;96,160/sp,dp" \
bash data/scripts/cpu-host-rounds.sh build /tmp/rounds /tmp/peer/bin/lbmbenchk-linux-gcc-release-sp /tmp/peer/bin/lbmbenchk-linux-gcc-release-dp > /tmp/rounds.log 2>&1
echo "rounds rc=$?" >> /tmp/rounds.log
