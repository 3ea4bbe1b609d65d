// The Demo Agent accepts images in prompts (it advertises the image prompt capability): before the
// scenario runs, it says what it received, e.g. "Received 1 image: image/png, 1,234 bytes".

import type { Block } from './model';
import type { Turn } from './turn';

export function acknowledgeImages(turn: Turn, prompt: readonly Block[]): void {
  const images = prompt.filter((b) => b.type === 'image');
  if (images.length === 0) return;
  const described = images.map((b) => {
    const mime = typeof b.mimeType === 'string' ? b.mimeType : 'unknown type';
    const data = typeof b.data === 'string' ? b.data.replace(/\s+/g, '') : '';
    const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    return `${mime}, ${bytes.toLocaleString('en-US')} bytes`;
  });
  turn.say(`Received ${images.length} image${images.length === 1 ? '' : 's'}: ${described.join('; ')}`);
}
