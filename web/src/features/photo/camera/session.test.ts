import { cameraActions as act, cameraReducer, canCapture, initialCameraSession, isLive, isUsable, NO_CAMERA, type CameraSession } from './session';

const run = (state: CameraSession, ...actions: ReturnType<(typeof act)[keyof typeof act]>[]) => actions.reduce(cameraReducer, state);
const photo = () => initialCameraSession('photo', 'back');

describe('camera session', () => {
  it('starts checking, with nothing captured and the flash off', () => {
    const s = photo();
    expect(s).toMatchObject({ mode: 'photo', side: 'back', status: 'checking', flash: false, captured: null });
    expect(isUsable(s)).toBe(false);
    expect(canCapture(s)).toBe(false);
  });

  it('opens: ready, with a torch only for a photo camera that has one', () => {
    expect(run(photo(), act.opening(), act.opened({ torch: true }))).toMatchObject({ status: 'ready', torch: true });
    const scan = initialCameraSession('barcode', 'back');
    expect(run(scan, act.opening(), act.opened({ torch: true })).torch).toBe(false);
    expect(isLive(run(photo(), act.opening()))).toBe(true);
  });

  it('falls back to simulation: no torch, the reason kept, still usable', () => {
    const s = run(photo(), act.opened({ torch: true }), act.simulation(NO_CAMERA));
    expect(s).toMatchObject({ status: 'simulation', simulationReason: NO_CAMERA, torch: false });
    expect(isUsable(s)).toBe(true);
    expect(isLive(s)).toBe(false);
  });

  it('switches side and returns to the status it had', () => {
    const live = run(photo(), act.opened({ torch: false }), act.switching());
    expect(live.status).toBe('switching');
    expect(isUsable(live)).toBe(false);
    expect(run(live, act.switched({ side: 'front', simulation: false, torch: true }))).toMatchObject({ side: 'front', status: 'ready', torch: true });
    const sim = run(photo(), act.simulation(NO_CAMERA), act.switching(), act.switched({ side: 'front', simulation: true }));
    expect(sim).toMatchObject({ side: 'front', status: 'simulation' });
  });

  it('turns the flash off in barcode mode and does not let it on there', () => {
    let s = run(photo(), act.opened({ torch: false }), act.flashToggled());
    expect(s.flash).toBe(true);
    s = run(s, act.modeChanged('barcode'));
    expect(s.flash).toBe(false);
    expect(run(s, act.flashToggled()).flash).toBe(false);
  });

  it('captures once: no second capture while busy or after a photo was taken', () => {
    const ready = run(photo(), act.opened({ torch: false }));
    expect(canCapture(ready)).toBe(true);
    expect(canCapture(run(ready, act.busy(true)))).toBe(false);
    const taken = run(ready, act.flashBurst(true), act.captured('data:image/jpeg;base64,eA=='));
    expect(taken).toMatchObject({ captured: 'data:image/jpeg;base64,eA==', flashBurst: false });
    expect(canCapture(taken)).toBe(false);
  });

  it('asks for access when the browser has not decided', () => {
    expect(run(photo(), act.permissionNeeded()).status).toBe('prompt');
  });
});
