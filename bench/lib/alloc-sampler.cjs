// Preloaded (`node -r`) by bench/profile.mjs --alloc: samples every allocation, collected or
// not (the inspector's sampling heap profiler), and writes the profile to $ALLOC_OUT at exit.
const inspector = require('node:inspector');
const fs = require('node:fs');
const s = new inspector.Session();
s.connect();
s.post('HeapProfiler.enable');
s.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
process.on('exit', () => {
  s.post('HeapProfiler.stopSampling', (err, r) => {
    if (err) { console.error(err); return; }
    fs.writeFileSync(process.env.ALLOC_OUT || '/tmp/alloc.heapprofile', JSON.stringify(r.profile));
  });
});
