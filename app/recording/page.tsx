import { RecordingViewer } from '@/components/recording/RecordingViewer';

/** The tab title. */
export const metadata = { title: 'Recording · Loupe' };

/** Opens a recording (file, drag and drop, or a share link's #rec= fragment) with no server behind it. */
export default function RecordingPage() {
  return <RecordingViewer />;
}
