import { useNavigate, useSearchParams } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';
import { CreateGigPanel } from './create-gig-panel';

/** `/create-gig` (docs/product.md §5 "Create gig"). */
export default function CreateGigPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <main className="page narrow">
      <h1>Create a gig</h1>
      <CreateGigPanel variant="page" restoreId={params.get('restore')} onCreated={() => navigate(PATHS.landing)} />
    </main>
  );
}
