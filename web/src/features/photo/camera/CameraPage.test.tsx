import { StrictMode } from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderWithProviders, signedOut } from '../../../test/utils';
import { ScanLookupProvider, type RenderScanLookup, type ScanLookupProps } from '../scanLookup';
import CameraPage from './CameraPage';
import { SIMULATED_BARCODE } from './simulation';

// jsdom has neither a camera nor a canvas: the simulation picture is a fixed JPEG here.
const SIM_PHOTO = 'data:image/jpeg;base64,c2ltdWxhdGVk';
vi.mock('./capture', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./capture')>()),
  captureSimulation: vi.fn(async () => SIM_PHOTO),
}));

function renderCamera(path = '/camera', productView: RenderScanLookup | null = null) {
  // Without a product view (the app provides the product lookup's), a scan goes to the editor.
  return renderWithProviders(
    <ScanLookupProvider value={productView}>
      <CameraPage />
    </ScanLookupProvider>,
    { path: '/camera', initialEntry: path, preloadedState: signedOut() },
  );
}

function FakeProductView({ code, onDecorate }: ScanLookupProps) {
  return (
    <button type="button" onClick={() => onDecorate('Plush Reindeer')}>
      Product {code}
    </button>
  );
}

describe('camera without a camera (simulation mode)', () => {
  afterEach(() => vi.useRealTimers());

  it('says the camera is not supported and shows the simulation picture', async () => {
    renderCamera();
    expect(screen.getByRole('heading', { level: 1, name: 'Take a Photo' })).toBeInTheDocument();
    expect(await screen.findByTestId('toast')).toHaveTextContent('Camera is not supported in this environment');
    expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'simulation');
    expect(screen.getByAltText('Simulated camera picture')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Photo' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('takes a simulated photo and opens Product Recognition; closing keeps the photo for the editor', async () => {
    mockFetch(() => json({}));
    const { router } = renderCamera();
    await screen.findByAltText('Simulated camera picture');
    fireEvent.click(screen.getByRole('button', { name: 'Take photo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Product Recognition' });
    expect(dialog).toBeInTheDocument();
    expect(await screen.findByTestId('toast')).toHaveTextContent('Image Captured!');
    fireEvent.click(screen.getByRole('button', { name: 'Close and decorate the photo' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/edit-photo'));
    expect(localStorage.getItem('capturedImage')).toBe(SIM_PHOTO);
  });

  it('switches sides in 0.3 s and remembers the side', async () => {
    vi.useFakeTimers();
    renderCamera();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Switch to the front camera' }));
    expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'switching');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'simulation');
    expect(screen.getByTestId('toast')).toHaveTextContent('Front Camera Active');
    expect(localStorage.getItem('cameraMode')).toBe('front');
  });

  it('mode=scan: barcode mode, flash disabled, and a simulated code after 1.5 s goes to the editor', async () => {
    vi.useFakeTimers();
    const { router } = renderCamera('/camera?mode=scan');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Scan a Barcode' })).toBeInTheDocument();
    expect(screen.getByText('Barcode mode')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Barcode' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: /Flash/ })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Scan barcode' }));
    expect(screen.getByTestId('toast')).toHaveTextContent('Scanning for barcode...');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1400);
    });
    expect(router.state.location.pathname).toBe('/camera');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(router.state.location.pathname + router.state.location.search).toBe('/edit-photo?source=scan');
    expect(screen.getByTestId('toast')).toHaveTextContent(`Barcode Detected`);
    expect(JSON.parse(localStorage.getItem('scanResult')!)).toMatchObject({ type: 'barcode', value: SIMULATED_BARCODE });
    expect(localStorage.getItem('capturedImage')).toBe(SIM_PHOTO);
  });

  it('with a product view, a scanned code shows it first; Decorate keeps its name for the editor', async () => {
    vi.useFakeTimers();
    const { router } = renderCamera('/camera?mode=scan', (props) => <FakeProductView {...props} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Scan barcode' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1600);
    });
    expect(router.state.location.pathname).toBe('/camera');
    fireEvent.click(screen.getByRole('button', { name: `Product ${SIMULATED_BARCODE}` }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/edit-photo?source=scan');
    expect(JSON.parse(localStorage.getItem('scannedItem')!)).toEqual({ name: 'Plush Reindeer', barcode: SIMULATED_BARCODE });
  });

  it('refuses a chosen file that is not an image', async () => {
    renderCamera();
    await screen.findByAltText('Simulated camera picture');
    const input = screen.getByLabelText('Choose photo');
    fireEvent.change(input, { target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('Please select an image file')).toBeInTheDocument();
  });
});

describe('camera with a camera', () => {
  function fakeStream() {
    const track = { stop: vi.fn(), getCapabilities: () => ({}), applyConstraints: vi.fn() };
    return { getTracks: () => [track], getVideoTracks: () => [track], track } as unknown as MediaStream & { track: typeof track };
  }

  function installCamera(getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>, permission: PermissionState = 'prompt') {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(getUserMedia) } });
    Object.defineProperty(navigator, 'permissions', {
      configurable: true,
      value: { query: vi.fn(async () => ({ state: permission })) },
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async () => undefined);
    return navigator.mediaDevices.getUserMedia as ReturnType<typeof vi.fn>;
  }

  afterEach(() => {
    delete (navigator as { mediaDevices?: unknown }).mediaDevices;
    delete (navigator as { permissions?: unknown }).permissions;
    vi.useRealTimers();
  });

  it('asks first, then opens the back camera at 1280×720 without audio', async () => {
    const getUserMedia = installCamera(async () => fakeStream());
    renderCamera();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable Camera Access' }));
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready'));
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
    expect(screen.getByTestId('toast')).toHaveTextContent('Back Camera Ready');
  });

  it('opens the camera under StrictMode too (it unmounts and mounts the screen once more)', async () => {
    const getUserMedia = installCamera(async () => fakeStream(), 'granted');
    renderWithProviders(<CameraPage />, { path: '/camera', preloadedState: signedOut(), wrapper: StrictMode });
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready'));
    expect(getUserMedia).toHaveBeenCalled();
  });

  it('starts at once when access was granted before, with the remembered side', async () => {
    localStorage.setItem('cameraMode', 'front');
    const getUserMedia = installCamera(async () => fakeStream(), 'granted');
    renderCamera();
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready'));
    expect(getUserMedia.mock.calls[0][0].video.facingMode).toEqual({ ideal: 'user' });
    expect(screen.getByTestId('toast')).toHaveTextContent('Front Camera Ready');
  });

  it('falls back to simulation mode when the camera cannot be opened', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    installCamera(async () => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    renderCamera();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable Camera Access' }));
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'simulation'));
    expect(screen.getByTestId('toast')).toHaveTextContent('Could not access camera. Using simulation mode.');
  });

  it('switches to the front camera after 0.3 s, and goes back with a toast when there is none', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = fakeStream();
    let onlyOneCamera = false;
    const getUserMedia = installCamera(async (c) => {
      const facing = (c.video as MediaTrackConstraints).facingMode as { exact?: string };
      if (facing.exact && onlyOneCamera) throw new DOMException('no such camera', 'OverconstrainedError');
      return facing.exact ? fakeStream() : first;
    }, 'granted');
    renderCamera();
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready'));

    fireEvent.click(screen.getByRole('button', { name: 'Switch to the front camera' }));
    expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'switching');
    await waitFor(() => expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready'));
    expect(first.track.stop).toHaveBeenCalled();
    expect(getUserMedia.mock.calls[1][0].video.facingMode).toEqual({ exact: 'user' });
    expect(screen.getByTestId('toast')).toHaveTextContent('Front Camera Active');
    expect(localStorage.getItem('cameraMode')).toBe('front');

    onlyOneCamera = true;
    fireEvent.click(screen.getByRole('button', { name: 'Switch to the back camera' }));
    await waitFor(() => expect(screen.getByTestId('toast')).toHaveTextContent('Camera Switch FailedCould not switch cameras. Try again.'));
    expect(screen.getByTestId('viewfinder')).toHaveAttribute('data-status', 'ready');
    expect(getUserMedia.mock.calls.at(-1)![0].video.facingMode).toEqual({ ideal: 'user' });
    expect(screen.getByRole('button', { name: 'Switch to the back camera' })).toBeEnabled();
    expect(localStorage.getItem('cameraMode')).toBe('front');
  });
});
